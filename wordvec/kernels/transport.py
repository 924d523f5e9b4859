"""The cheapest transport of one integer mass onto another: the earth mover's distance that
the word mover's distance takes (:mod:`wordvec.query.transport`).

Sources ``i`` hold ``supply[i]`` units, sinks ``j`` want ``demand[j]`` (the totals equal);
a unit moved from ``i`` to ``j`` costs ``cost[i, j]`` (at least 0). Successive shortest paths:
while a source has units left, Dijkstra's search from it over the residual graph (a source
reaches every sink; a sink reaches back the sources that send to it, at the negated cost)
finds the cheapest sink still wanting units, and the path carries as many as its narrowest
place allows. Node potentials keep the costs Dijkstra sees non-negative (each search adds
its distances to them, capped at the sink's), so every search is exact, and the flow is a
cheapest one at every step: at the end, a cheapest transport of all of it.

The potentials start as each row's and then each column's cheapest cost, and the moves they
make free carry what they can first, so that most units need no search. The masses are
integers (a document's word counts, scaled to a common total), so every path carries at
least one unit and the loop ends. A search reaches a sink's senders from a list of them.
"""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def min_cost_transport(supply, demand, cost):
    """The least total cost (float64) of moving ``supply`` (int64, n) onto ``demand`` (int64,
    m; the same total, else NaN) at ``cost`` (float64, n x m, non-negative) a unit."""
    if supply.sum() != demand.sum():
        return np.nan
    n, m = cost.shape
    flow = np.zeros((n, m), dtype=np.int64)
    senders = np.empty((m, n), dtype=np.int64)  # sink j's sources that send: senders[j, :count]
    n_senders = np.zeros(m, dtype=np.int64)
    left, wanted = supply.copy(), demand.copy()
    potential = np.zeros(n + m)  # sources 0..n-1, then sinks n..n+m-1
    distance = np.empty(n + m)
    before = np.empty(n + m, dtype=np.int64)  # the node a shortest path came from (-1: none)
    done = np.empty(n + m, dtype=np.bool_)
    total = _free_moves(cost, potential, left, wanted, flow, senders, n_senders)
    remaining = left.sum()
    origin = 0
    while remaining > 0:
        while left[origin] == 0:  # the path starts at a source with units left
            origin += 1
        target = _nearest_wanting(  # one wants: a source reaches every sink
            origin, cost, potential, wanted, flow, senders, n_senders, distance, before, done
        )
        reach = distance[target]
        for v in range(n + m):  # the reduced costs stay non-negative
            potential[v] += min(distance[v], reach)
        units = min(wanted[target - n], left[origin])
        v = target
        while before[v] >= 0:  # the narrowest place: a reverse move's units, or the ends'
            u = before[v]
            if u >= n:
                units = min(units, flow[v, u - n])
            v = u
        v = target
        while before[v] >= 0:
            u = before[v]
            if u < n:
                total += units * cost[u, v - n]
                _move(u, v - n, units, flow, senders, n_senders)
            else:
                total -= units * cost[v, u - n]
                _move(v, u - n, -units, flow, senders, n_senders)
            v = u
        left[origin] -= units
        wanted[target - n] -= units
        remaining -= units
    return total


@njit(cache=True, nogil=True)
def _free_moves(cost, potential, left, wanted, flow, senders, n_senders):
    """Set the potentials that make each row's, then each column's, cheapest move cost 0,
    and carry what those moves can; return the cost carried."""
    n, m = cost.shape
    for i in range(n):
        potential[i] = -cost[i].min()
    for j in range(m):
        potential[n + j] = (cost[:, j] + potential[:n]).min()
    total = 0.0
    for i in range(n):
        for j in range(m):
            if left[i] > 0 and wanted[j] > 0 and cost[i, j] + potential[i] <= potential[n + j]:
                units = min(left[i], wanted[j])
                total += units * cost[i, j]
                _move(i, j, units, flow, senders, n_senders)
                left[i] -= units
                wanted[j] -= units
    return total


@njit(cache=True, nogil=True)
def _nearest_wanting(origin, cost, potential, wanted, flow, senders, n_senders, distance,
                     before, done):  # fmt: skip
    """Dijkstra's search from source ``origin`` under the reduced costs, until it settles a
    sink that wants units; return that sink's node (-1: none wants), with ``distance`` and
    ``before`` set for the nodes reached. The graph is dense and small (a document's
    distinct words): the next node is found by a scan (a binary heap was slower)."""
    n, m = cost.shape
    for v in range(n + m):
        distance[v] = np.inf
        before[v] = -1
        done[v] = False
    distance[origin] = 0.0
    while True:
        u = -1
        for v in range(n + m):
            if not done[v] and distance[v] < np.inf and (u < 0 or distance[v] < distance[u]):
                u = v
        if u < 0:
            return -1
        done[u] = True
        if u >= n and wanted[u - n] > 0:
            return u
        if u < n:  # a source: on to every sink
            for j in range(m):
                reached = distance[u] + max(cost[u, j] + potential[u] - potential[n + j], 0.0)
                if reached < distance[n + j]:
                    distance[n + j] = reached
                    before[n + j] = u
        else:  # a sink: back to the sources that send to it
            j = u - n
            for s in range(n_senders[j]):
                i = senders[j, s]
                reached = distance[u] + max(-cost[i, j] + potential[u] - potential[i], 0.0)
                if reached < distance[i]:
                    distance[i] = reached
                    before[i] = u


@njit(cache=True, nogil=True)
def _move(i, j, units, flow, senders, n_senders):
    """Add ``units`` (negative: take them back) to the move from source ``i`` to sink ``j``,
    keeping ``j``'s list of senders."""
    was = flow[i, j]
    flow[i, j] = was + units
    if was == 0 and units > 0:
        senders[j, n_senders[j]] = i
        n_senders[j] += 1
    elif was + units == 0:
        for s in range(n_senders[j]):
            if senders[j, s] == i:
                n_senders[j] -= 1
                senders[j, s] = senders[j, n_senders[j]]
                break
