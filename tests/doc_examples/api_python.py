# docs/api.md, the Python block. Given: `vertices` (float64) and `triangles` (int64) numpy arrays
# of two 8 x 8 m slabs with a 2 m gap along x, tops at y = 0 (the block converts them); a and b,
# starts and ends on either slab; p a point above the first slab. Checks: the path is found with
# one jump, the dicts have the keys the comments name; find_paths gives the same; the sliced search, once
# run, gives find_path's path; the saved file loads.
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
vertices = np.array(v0 + v1, dtype=np.float64)
triangles = np.array(t0 + t1, dtype=np.int64)
a, b = [2, 0, 4], [16, 0, 4]
p = [4, 1, 4]
starts = np.array([a, a], dtype=np.float32)
ends = np.array([b, [6, 0, 6]], dtype=np.float32)

# @example

assert path.status == "found", path.status
assert [s["kind"] for s in path.segments].count("jump") == 1, path.segments
assert list(statuses) == ["found", "found"], statuses
assert set(nav.move_along_surface(a, b)) == {"reached", "point", "polygons"}
assert set(nav.distance_to_wall(p, 5.0)) == {"found", "distance", "point", "normal"}
assert abs(lengths[0] - path.length) < 1e-9, (lengths, path.length)
done = False
while not done:
    done, expanded = search.update(64)
sliced = search.finish()
assert sliced.length == path.length and np.array_equal(sliced.points, path.points)
assert leapnav.load("level.lnav").stats == nav.stats
print("api_python: the example runs and does what the text says")
