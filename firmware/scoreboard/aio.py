# asyncio's allocation-free sleep_ms, and its stand-in under CPython (which has only sleep in
# seconds): the one fallback for every task of the firmware (the host's scoring task, the
# network's). Only boards that run services load this (and asyncio with it).
import asyncio

try:
    from asyncio import sleep_ms  # type: ignore[attr-defined]  # MicroPython
except ImportError:  # CPython

    def sleep_ms(ms):  # type: ignore[misc,no-redef]
        return asyncio.sleep(ms / 1000)

__all__ = ('sleep_ms',)
