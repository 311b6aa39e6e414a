# The gin pads (Oklahoma, Sequence and Skarney Gin): their rules, engine, codec and messages.
