"""Checks attention_bench.Interleaved without a GPU: a fake torch whose
events read a clock that every replay advances by the replayed entry's cost
times a drift that grows over the run (a GPU slowing as it warms). Two
entries of equal cost must then get equal medians when interleaved, and
different ones when timed one after the other (time_groups)."""
import sys

sys.path.insert(0, sys.argv[1])
import attention_bench as ab  # noqa: E402

clock = [0.0]
replays = [0]


def drift():
    return 1.0 + 0.01 * replays[0]


class Event:
    def __init__(self, *a):
        self.t = 0.0

    def record(self):
        self.t = clock[0]

    def synchronize(self):
        pass

    def elapsed_time(self, other):
        return other.t - self.t


class FakeCuda:
    Event = Event

    @staticmethod
    def synchronize():
        pass

    @staticmethod
    def empty_cache():
        pass


class FakeTorch:
    cuda = FakeCuda


order = []


def entry(cost, name):
    def fn(i):
        clock[0] += cost * drift()
    fn.name = name
    return fn


def fake_capture(fn, per, copies):
    def replay():
        for j in range(per):
            fn(j % copies)
        replays[0] += 1
        order.append(fn.name)
    return replay, "graph", None


ab.torch = FakeTorch
ab.capture = fake_capture
ab.one_call_ms = lambda fn, i=0: 0.5
row, done = {}, []
t = ab.Interleaved()
t.add("a", entry(0.5, "a"), 1, row, lambda: done.append("a"))
t.add("b", entry(0.5, "b"), 1, row, lambda: done.append("b"))
t.add("c", entry(1.0, "c"), 1, row)
t.run()
print("interleaved a/b", round(row["a_us"] / row["b_us"], 3))
print("interleaved c/a", round(row["c_us"] / row["a_us"], 2))
print("modes", row["a_mode"], "|", row["c_mode"])
print("finished", done, "entries left", len(t.entries))
# one capture replay per entry, then the rounds, their order rotating
print("replays", "".join(order[:3]), "then", "".join(order[3:12]),
      "of", len(order) - 3)
seq = {}
for k in ("a", "b"):
    med, best, mode = ab.time_groups(entry(0.5, k), 1)
    seq[k] = med
print("one after the other a/b", round(seq["a"] / seq["b"], 3))
err = {}
bad = ab.Interleaved()
bad.add("x", lambda i: 1 / 0, 1, err)
bad.run()
print("error", err)
