"""Unpack the files under a prefix (and with a suffix) from every wheel in a folder.

Usage: unpack_wheels.py WHEELS DEST PREFIX [SUFFIX] [strip]

Files keep their path in the wheel under DEST, or with "strip" their path
below PREFIX.
"""

import pathlib
import sys
import zipfile


def main(wheels: str, dest: str, prefix: str, suffix: str = "", strip: str = "") -> None:
    out = pathlib.Path(dest)
    count = 0
    for wheel in sorted(pathlib.Path(wheels).glob("*.whl")):
        with zipfile.ZipFile(wheel) as zf:
            for name in zf.namelist():
                if name.startswith(prefix) and name.endswith(suffix) and not name.endswith("/"):
                    rel = name[len(prefix):] if strip == "strip" else name
                    target = out / rel
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(name))
                    count += 1
    if count == 0:
        sys.exit(f"no {prefix}*{suffix} found in {wheels}")


if __name__ == "__main__":
    main(*sys.argv[1:6])
