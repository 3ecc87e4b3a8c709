"""Readable twins of the fast backends, written to be read next to the paper they follow.

Each module here makes the same choices in the same order as its fast twin, so it gives
the same solutions and the same counters (tests check this); it is slower, and clearer.
A backend reaches its twin with ``impl='readable'``.
"""
