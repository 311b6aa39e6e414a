# What runs once at start and leaves the heap after: the journal's mount and the replay of the open sitting.
