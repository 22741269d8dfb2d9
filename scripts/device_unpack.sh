# Sourced by the device scripts: unpacks a bundle from scripts/device_bundle.sh in place
# (binaries travel gzipped), recreates the build-time paths the test binaries embed,
# puts the bundled shared libraries on LD_LIBRARY_PATH and sets B (the bundle), SRC
# (the build-time source dir), R (raydb) and T (the test binaries' folder).
B=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # this file lies in the bundle's scripts/
for f in "$B"/build/raydb.gz "$B"/build/tests/*.gz; do [ -f "$f" ] && gunzip -f "$f" && chmod +x "${f%.gz}"; done
SRC=$(cat "$B/source_dir")
if [ ! -e "$SRC" ]; then mkdir -p "$(dirname "$SRC")" && ln -s "$B" "$SRC"; fi
if [ "$(cd "$SRC" && pwd -P)" != "$(cd "$B" && pwd -P)" ]; then
  mkdir -p "$SRC/build/tests" && cp "$B"/build/raydb "$SRC/build/" && cp "$B"/build/tests/* "$SRC/build/tests/"
  [ -d "$SRC/ssb/queries" ] || { mkdir -p "$SRC/ssb" && cp -r "$B/ssb/queries" "$SRC/ssb/"; }
fi
# Replaced by rename, never rewritten in place: a script sourcing this a second time
# runs under a bash that may have mapped one of these (libtinfo), and truncating a
# mapped library kills that process with SIGSEGV.
mkdir -p /tmp/raydb-lib && for f in "$B"/lib/*.gz; do
  l="/tmp/raydb-lib/$(basename "$f" .gz)"
  gunzip -c "$f" > "$l.new.$$" && mv -f "$l.new.$$" "$l"
done
export LD_LIBRARY_PATH=/tmp/raydb-lib:${LD_LIBRARY_PATH:-}
R=$SRC/build/raydb
T=$SRC/build/tests
