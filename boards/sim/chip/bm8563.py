# A FAKE of the M5Stack CoreInk's BM8563 real-time clock at the bus: machine.I2C's readfrom_mem /
# writeto_mem (MicroPython's ports/esp32 machine_i2c.c through extmod/machine_i2c.c) on
# the chip's register file. Per the BM8563 datasheet: registers 0x02-0x08 hold seconds
# (bit 7 VL: the clock's integrity was lost), minutes, hours, day, weekday, month (bit 7:
# century) and year in BCD; a write starts at a register and goes on to the next.
# advance(s) moves its time as its crystal does; a chip that is not there raises
# OSError(ENODEV) as the port does for a missing device.


class FakeBM8563:
    ADDRESS = 0x51

    def __init__(self, present=True):
        self.regs = bytearray(16)
        self.regs[2] = 0x80         # VL: never set (power-on)
        self.present = present

    def i2c_class(self):
        chip = self

        class I2C:
            def __init__(self, id, scl=None, sda=None, freq=400000):
                self.scl, self.sda = scl, sda

            def readfrom_mem(self, addr, reg, n):
                chip._check(addr)
                return bytes(chip.regs[reg:reg + n])

            def writeto_mem(self, addr, reg, buf):
                chip._check(addr)
                chip.regs[reg:reg + len(buf)] = buf

        return I2C

    def _check(self, addr):
        if not self.present or addr != self.ADDRESS:
            raise OSError(19)

    def advance(self, seconds):
        # Seconds forward, within the same day (what a test needs).
        def dec(v):
            return (v >> 4) * 10 + (v & 15)

        def enc(v):
            return (v // 10) << 4 | v % 10
        r = self.regs
        t = dec(r[4] & 0x3F) * 3600 + dec(r[3] & 0x7F) * 60 + dec(r[2] & 0x7F) + seconds
        r[2] = enc(t % 60) | (r[2] & 0x80)
        r[3] = enc(t // 60 % 60)
        r[4] = enc(t // 3600 % 24)
