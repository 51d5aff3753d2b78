"""Table entry that keeps working through a venue's network outage: the installable web app (manifest and
service worker) and the strings of the device's queue of hands (``static/js/offline-entry.js``)."""
