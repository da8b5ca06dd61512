# README.md "Using the library", Python. Given: `import leapnav`; vertices and triangles (numpy)
# of two 8 x 8 m slabs with a 2 m gap along x, tops at y = 0 (the block's start and goal lie on
# either slab). Checks: the path is found with one jump, and it has the attributes the comment names.
import numpy as np

import leapnav


def box(lo, hi, first):
    corners = [[hi[0] if k & 1 else lo[0], hi[1] if k & 2 else lo[1], hi[2] if k & 4 else lo[2]]
               for k in range(8)]
    faces = [(2, 6, 7, 3), (0, 1, 5, 4), (0, 4, 6, 2), (1, 3, 7, 5), (4, 5, 7, 6)]
    tris = [[first + a, first + b, first + c] for a, b, c, d in faces] + \
           [[first + a, first + c, first + d] for a, b, c, d in faces]
    return corners, tris


v0, t0 = box([0, -0.5, 0], [8, 0, 8], 0)
v1, t1 = box([10, -0.5, 0], [18, 0, 8], 8)
vertices = np.array(v0 + v1, dtype=np.float32)
triangles = np.array(t0 + t1, dtype=np.int32)

# @example

assert path.status == "found", path.status
assert path.length > 14.0
assert len(path.points) >= 2
assert [s["kind"] for s in path.segments].count("jump") == 1, path.segments
print("readme_python: the example runs and does what the text says")
