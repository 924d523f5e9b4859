"""The cheapest transport of one integer mass onto another: the earth mover's distance that
the word mover's distance takes (:mod:`wordvec.query.transport`).

Sources ``i`` hold ``supply[i]`` units, sinks ``j`` want ``demand[j]`` (the totals equal);
a unit moved from ``i`` to ``j`` costs ``cost[i, j]`` (at least 0). Successive shortest paths:
while a source has units left, Dijkstra's search from every such source over the residual
graph (a source reaches every sink; a sink reaches back the sources that send to it, at the
negated cost) finds the cheapest sink still wanting units, and the path carries as many as
its narrowest place allows. Node potentials keep the costs Dijkstra sees non-negative (each
search adds its distances to them, capped at the sink's), so every search is exact, and the
flow is a cheapest one at every step: at the end, a cheapest transport of all of it. The
masses are integers (a document's word counts, scaled to a common total), so every path
carries at least one unit and the loop ends; the graph is dense and small (a document's
distinct words), so each search is a plain O(nodes^2) scan.
"""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def min_cost_transport(supply, demand, cost):
    """The least total cost (float64) of moving ``supply`` (int64, n) onto ``demand`` (int64,
    m; the same total, else NaN) at ``cost`` (float64, n x m, non-negative) a unit."""
    n, m = cost.shape
    flow = np.zeros((n, m), dtype=np.int64)
    left = supply.copy()
    wanted = demand.copy()
    potential = np.zeros(n + m)  # sources 0..n-1, then sinks n..n+m-1
    distance = np.empty(n + m)
    before = np.empty(n + m, dtype=np.int64)  # the node a shortest path came from (-1: none)
    done = np.empty(n + m, dtype=np.bool_)
    total = 0.0
    remaining = left.sum()
    while remaining > 0:
        for v in range(n + m):
            distance[v] = np.inf
            before[v] = -1
            done[v] = False
        for i in range(n):
            if left[i] > 0:  # every source with units left starts a path
                distance[i] = 0.0
        target = -1
        while True:
            u = -1
            for v in range(n + m):
                if not done[v] and distance[v] < np.inf and (u < 0 or distance[v] < distance[u]):
                    u = v
            if u < 0:
                break
            done[u] = True
            if u >= n and wanted[u - n] > 0:
                target = u
                break
            if u < n:  # a source: on to every sink
                for j in range(m):
                    reduced = max(cost[u, j] + potential[u] - potential[n + j], 0.0)
                    if distance[u] + reduced < distance[n + j]:
                        distance[n + j] = distance[u] + reduced
                        before[n + j] = u
            else:  # a sink: back to the sources that send to it
                j = u - n
                for i in range(n):
                    if flow[i, j] > 0:
                        reduced = max(-cost[i, j] + potential[u] - potential[i], 0.0)
                        if distance[u] + reduced < distance[i]:
                            distance[i] = distance[u] + reduced
                            before[i] = u
        if target < 0:  # no sink reachable: the totals differ
            return np.nan
        reach = distance[target]
        for v in range(n + m):  # the reduced costs stay non-negative
            potential[v] += min(distance[v], reach)
        units = wanted[target - n]
        v = target
        while before[v] >= 0:  # the narrowest place: a reverse arc's flow, or the origin's
            u = before[v]
            if u >= n:
                units = min(units, flow[v, u - n])
            v = u
        units = min(units, left[v])
        v = target
        while before[v] >= 0:
            u = before[v]
            if u < n:
                flow[u, v - n] += units
                total += units * cost[u, v - n]
            else:
                flow[v, u - n] -= units
                total -= units * cost[v, u - n]
            v = u
        left[v] -= units
        wanted[target - n] -= units
        remaining -= units
    return total
