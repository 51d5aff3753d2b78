# Una sola forma de escribir fechas y horas en español: 24 nov 2026 · mar 24 nov 2026, 16:31 · 24 nov, 16:31
DATE_FORMAT = "j b Y"
DATETIME_FORMAT = "D j b Y, H:i"
SHORT_DATE_FORMAT = "j b Y"
SHORT_DATETIME_FORMAT = "j b, H:i"
TIME_FORMAT = "H:i:s"
MONTH_DAY_FORMAT = "j b"
YEAR_MONTH_FORMAT = "F \\d\\e Y"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%d/%m/%Y %H:%M"]
FIRST_DAY_OF_WEEK = 1
