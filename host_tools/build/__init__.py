# What ships: the manifests, the fold of the source, the ROMFS image, and the sim's build.
