# The radio: live results sent to the organiser's PC over ESP-NOW (docs/radio.md).
