"""ParaView reads yeex's snapshot XDMF as the HDF5 says (CTest xdmf_paraview): for each NAME.xdmf,
ParaView's Xdmf3 reader (the one File > Open uses) must give the steps' times, the components,
the bounds origin .. origin + (nodes - 1) cell_size from NAME.h5's attributes, and at the last
step each component's value range. Exits 1 naming the first difference.

    pvbatch check_xdmf_paraview.py NAME.xdmf...
"""
import math
import sys

import h5py
import numpy as np
from paraview import simple as pv


def expect(condition, message):
    if not condition:
        sys.exit("check_xdmf_paraview: " + message)


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


for xdmf in sys.argv[1:]:
    with h5py.File(xdmf[: -len(".xdmf")] + ".h5", "r") as f:
        groups = sorted(f, key=lambda g: int(f[g].attrs["step"]))
        times = [float(f[g].attrs["time"]) for g in groups]
        origin, cell = list(f.attrs["origin"]), list(f.attrs["cell_size"])
        last = {name: np.asarray(d[...]) for name, d in f[groups[-1]].items()}
    reader = pv.Xdmf3ReaderS(FileName=[xdmf])
    read_times = list(reader.TimestepValues) if len(times) > 1 else [reader.TimestepValues or 0.0]
    expect(len(read_times) == len(times) and all(map(close, read_times, times)),
           "%s: ParaView reads times %s, the file has %s" % (xdmf, read_times, times))
    reader.UpdatePipeline(read_times[-1])
    arrays = sorted(reader.PointData.keys())
    expect(arrays == sorted(last), "%s: ParaView reads arrays %s, the file has %s" % (xdmf, arrays, sorted(last)))
    info = reader.GetDataInformation()
    bounds = info.GetBounds()
    shape = next(iter(last.values())).shape  # (nz, ny, nx)
    for axis in range(3):
        high = origin[axis] + (shape[2 - axis] - 1) * cell[axis]
        expect(close(bounds[2 * axis], origin[axis]) and close(bounds[2 * axis + 1], high),
               "%s: ParaView bounds %s, the attributes give %s .. %s along %s"
               % (xdmf, bounds, origin[axis], high, "xyz"[axis]))
    for name, values in last.items():
        low, high = info.GetPointDataInformation().GetArrayInformation(name).GetComponentRange(0)
        expect(close(low, float(values.min())) and close(high, float(values.max())),
               "%s: ParaView reads %s in [%g, %g], the file has [%g, %g]"
               % (xdmf, name, low, high, values.min(), values.max()))
    print("check_xdmf_paraview: %s: %d steps, %s, bounds %s as NAME.h5 says" % (xdmf, len(times), ", ".join(arrays),
                                                                                  ["%.4g" % b for b in bounds]))
