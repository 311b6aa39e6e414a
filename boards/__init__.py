# Boards: one module per board, holding its wiring and nothing else (esp32_epd29,
# lilygo_t5_213, m5stack_coreink), and the firmware images' manifests; the emulated
# boards (the sim on the unix port, the qemu board) are boards/sim/'s. A device board
# module offers
#
#     open() -> Board
#
# and the firmware uses every board, the sim included, through these attributes only:
#
#   display        a firmware.display driver (framebuf.FrameBuffer subclass): width,
#                  height, the drawing methods, show(full=False), ready(),
#                  wait_until_ready(timeout_ms) -> bool, sleep()
#   buttons        poll(now_ms) -> a firmware.buttons code (LONG or-ed in for a long
#                  press), 0 when nothing happened; the sim may return -1: stop.
#                  skip_held(now_ms): ignore the press that woke the board
#   flash          the journal's block device: readblocks(block, buf, offset=0),
#                  writeblocks(block, buf, offset), ioctl(op, arg) (4 block count,
#                  5 block size, 6 erase). On a device the esp32.Partition labelled
#                  "journal"; None if the partition table has none (say so on screen).
#   settings_path  the file firmware.settings keeps
#   serial         the USB serial link: .rx (read/readinto) and .tx (write) byte streams
#                  (sys.stdin.buffer / sys.stdout.buffer; see UsbSerial)
#   ticks_ms(), sleep_ms(ms)   the clock: compare ticks only with time.ticks_diff
#   deep_sleep(ms=None)  the panel to sleep (if it still answers), the buttons armed to
#                  wake the ESP32, then machine.deepsleep(ms): the program starts again
#                  from main.py on a press (or after ms)
#   light_sleep(ms)  the buttons armed, then machine.lightsleep(ms): returns on a press
#                  or after ms, RAM and program kept (firmware/power.py)
#   cpu_freq(hz)   machine.freq(hz)
#   woke()         True when this boot is a wake from deep sleep (the wake press is
#                  still held: no safe mode)
#   hung()         True when this boot follows a watchdog reset
#   restart()      machine.reset() (the CoreInk: a moment's deep sleep, its latch held)
#   start_watchdog(ms), feed()   machine.WDT, started by the main loop, fed by it and by
#                  every wait for the panel (boards/device.py)
#   battery        the GPIO of the cell's ADC, or None (firmware/battery.py)
#   battery_ratio  its divider, (num, den): the cell's volts are the pin's x num/den
#   tx_dbm         the radio's transmit power
#   hush(on, now_ms)  a device board's: the SAR ADC is being powered (a battery read,
#                  WiFi's start), GPIO36/39's glitch is no tap (firmware/buttons.py)
#   radio()        -> (wlan, espnow) for firmware/radio/air.py (boards/device.py
#                  BoardWlan on an ESP32: its power, its low-cell refusal)
#   wakes_on_every_button   every button is a wake pin: the board may nap in a refresh
#   rtc            the time of day kept in the ESP32's RTC, which runs through deep
#                  sleep: set(unix_seconds, utc_offset_minutes), now() -> (unix seconds,
#                  offset), unix 0 when never set (see RtcClock)
#   name, wake_pins
#
# main.py on a device is two lines (the board is opened inside the crash handler):
#     from firmware import start
#     start.main("esp32_epd29")
#
# What every ESP32 board file shares (Board, the USB serial, the journal partition, the
# RTC clock, the button edge counters, the sleeps, the watchdog) is boards/device.py. The
# sim is not an ESP32 and loads none of it: importing this package costs a device
# nothing but its name.
