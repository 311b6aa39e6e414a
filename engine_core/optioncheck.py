# The checks of house option values that the 42 family's options (texas42/options.py)
# and the gin pads' (gin/options.py) share, and OptionError, the message of what is wrong.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)


class OptionError(ValueError):
    pass


def whole(key, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError("option %s must be a whole number" % key)
    if value < lo or value > hi:
        raise OptionError("option %s must be from %d to %d, not %d" % (key, lo, hi, value))
    return value


def choice(key, value, names):
    if isinstance(value, str):
        for i, n in enumerate(names):
            if n == value:
                return i
    raise OptionError("option %s must be one of %s, not %s" % (key, ", ".join(names), show(value)))


def flag(key, value):
    if value is True or value is False:
        return 1 if value else 0
    raise OptionError("option %s must be true or false" % key)


def show(value):
    if isinstance(value, str):
        return '"%s"' % value
    return str(value)
