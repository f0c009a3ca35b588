"""``razz serve``: play, watch and replay in the browser.

:mod:`razz_env.serve.app` (the web app and the command) over :mod:`razz_env.serve.tables` (the tables).
"""
