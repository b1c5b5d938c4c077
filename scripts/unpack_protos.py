"""Unpack the .proto files under a prefix from every wheel in a folder."""

import pathlib
import sys
import zipfile


def main(wheels: str, dest: str, prefix: str) -> None:
    out = pathlib.Path(dest)
    count = 0
    for wheel in sorted(pathlib.Path(wheels).glob("*.whl")):
        with zipfile.ZipFile(wheel) as zf:
            for name in zf.namelist():
                if name.startswith(prefix) and name.endswith(".proto"):
                    target = out / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(name))
                    count += 1
    if count == 0:
        sys.exit(f"no {prefix}*.proto found in {wheels}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
