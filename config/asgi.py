import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

# With no broker (the embedded default) this process runs the periodic tasks itself (config/scheduler.py).
from config import scheduler  # noqa: E402
from config.settle import settle  # noqa: E402

scheduler.start()
# what this process loaded stays out of the garbage collector's way (config/settle.py)
settle()
