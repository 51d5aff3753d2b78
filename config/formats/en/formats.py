# One way to write dates and times on every page in English: 24 Nov 2026 · Tue 24 Nov 2026, 16:31 · 24 Nov, 16:31
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "D j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M, H:i"
TIME_FORMAT = "H:i:s"
MONTH_DAY_FORMAT = "j M"
YEAR_MONTH_FORMAT = "F Y"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%d/%m/%Y %H:%M"]
FIRST_DAY_OF_WEEK = 1
