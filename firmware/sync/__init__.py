# The sync session with the PC, a load-for-a-while phase: the endpoint, the journal's side, what the PC sets; unloaded by prefix when the session ends.
