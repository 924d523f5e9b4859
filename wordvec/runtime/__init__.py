"""How wordvec runs: threads (:mod:`.parallel`), progress bars and notes on stderr
(:mod:`.progress`), large arrays placed with care (:mod:`.memory`), atomic file writes
(:mod:`.atomic`), settings made for a block (:mod:`.ambient`) and numba's start-up and the
interpreter's exit once the kernels load (:mod:`.startup`). Every other
package builds on these; they import nothing of wordvec's but its errors."""
