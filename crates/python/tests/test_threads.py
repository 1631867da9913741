"""The GIL is released during long work, and Ctrl-C stops it."""

import _thread
import threading
import time

import pytest

import arbiter


def test_other_threads_run_while_validating():
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    start = time.perf_counter()
    arbiter.validate("corpus/english")
    elapsed = time.perf_counter() - start
    stop.set()
    t.join()
    # With the GIL held for the whole call the counter could not move at all.
    assert ticks > min(50, elapsed * 100), (ticks, elapsed)


def test_ctrl_c_interrupts_validate():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    start = time.perf_counter()
    try:
        arbiter.validate(["corpus"] * 20)
        interrupted = False
    except KeyboardInterrupt:
        interrupted = True
    else:
        try:  # the work ended first: let the interrupt land here instead
            time.sleep(5)
        except KeyboardInterrupt:
            pass
    timer.join()
    assert interrupted
    assert time.perf_counter() - start < 5
