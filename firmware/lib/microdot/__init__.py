from microdot.microdot import Microdot, Request, Response, abort, redirect, \
    send_file, URLPattern, AsyncBytesIO, iscoroutine  # noqa: F401

__version__ = '2.7.0'
