"""The browser client's face: its files (``static/``, package data) and the page routes."""
