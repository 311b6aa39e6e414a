# The 42 family (Texas 42, Nello, Sevens, Moon, ...): its rules, options, sitting, scoring, state slots.
