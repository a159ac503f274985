"""Startup and per-task overhead of Dask distributed and Ray on this machine (2 workers, no-op tasks).

python -m exact.bench.cluster_overhead   (needs dask[distributed] and ray; prints one line per framework)
"""

import os
import time


def noop(x):
    return x


def dask_overhead(workers=2, tasks=200):
    from distributed import Client, LocalCluster  # lazy: optional dependency (pip install -e '.[cluster]')

    t = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=40)
    client = Client(cluster)
    client.submit(noop, 0).result()
    start = time.perf_counter() - t
    t = time.perf_counter()
    for i in range(tasks):  # one at a time: a round trip per task
        client.submit(noop, i, pure=False).result()
    serial = (time.perf_counter() - t) / tasks
    t = time.perf_counter()
    client.gather([client.submit(noop, i, pure=False) for i in range(tasks)])
    batch = (time.perf_counter() - t) / tasks
    client.close()
    cluster.close()
    return start, serial, batch


def ray_overhead(workers=2, tasks=200):
    import ray  # lazy: optional dependency (ray, not in the project's extras: pip install ray)

    t = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, logging_level="ERROR")
    remote = ray.remote(noop)
    ray.get(remote.remote(0))
    start = time.perf_counter() - t
    t = time.perf_counter()
    for i in range(tasks):
        ray.get(remote.remote(i))
    serial = (time.perf_counter() - t) / tasks
    t = time.perf_counter()
    ray.get([remote.remote(i) for i in range(tasks)])
    batch = (time.perf_counter() - t) / tasks
    ray.shutdown()
    return start, serial, batch


if __name__ == "__main__":
    print(f"{os.cpu_count()} cores visible, 2 workers, 200 no-op tasks")
    for name, fn in (("dask", dask_overhead), ("ray", ray_overhead)):
        start, serial, batch = fn()
        print(f"{name}: startup {start:.2f} s; per task {serial * 1e3:.2f} ms one at a time, "
              f"{batch * 1e3:.2f} ms submitted together")
