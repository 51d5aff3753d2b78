"""Seating: who sits where in every session. ``engine/`` plans it in pure Python; the services write and
publish it, the views, forms and API serve the director's seating workflow and the print sheets."""
