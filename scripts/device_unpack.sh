# Sourced by the device scripts: unpacks a bundle from scripts/device_bundle.sh in place
# (binaries travel gzipped), recreates the build-time paths the test binaries embed,
# puts the bundled shared libraries on LD_LIBRARY_PATH and sets B (the bundle), SRC
# (the build-time source dir), R (raydb) and T (the test binaries' folder).
B=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # this file lies in the bundle's scripts/
# unpack_to FILE.gz|FILE.xz OUT: xz where the image has it, else Python's lzma.
unpack_to() {
  case $1 in
    *.gz) gunzip -c "$1" > "$2" ;;
    *.xz) if command -v xz > /dev/null; then xz -dc "$1" > "$2"
          else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1" > "$2"; fi ;;
  esac
}
for f in "$B"/build/raydb.gz "$B"/build/raydb.xz "$B"/build/tests/*.gz "$B"/build/tests/*.xz; do
  [ -f "$f" ] || continue
  unpack_to "$f" "${f%.*}" && chmod +x "${f%.*}" && rm -f "$f"
done
SRC=$(cat "$B/source_dir")
if [ ! -e "$SRC" ]; then mkdir -p "$(dirname "$SRC")" && ln -s "$B" "$SRC"; fi
if [ "$(cd "$SRC" && pwd -P)" != "$(cd "$B" && pwd -P)" ]; then
  mkdir -p "$SRC/build/tests" && cp "$B"/build/raydb "$SRC/build/" && cp "$B"/build/tests/* "$SRC/build/tests/"
  [ -d "$SRC/ssb/queries" ] || { mkdir -p "$SRC/ssb" && cp -r "$B/ssb/queries" "$SRC/ssb/"; }
fi
# Replaced by rename, never rewritten in place: a script sourcing this a second time
# runs under a bash that may have mapped one of these (libtinfo), and truncating a
# mapped library kills that process with SIGSEGV.
mkdir -p /tmp/raydb-lib && for f in "$B"/lib/*.gz "$B"/lib/*.xz; do
  [ -f "$f" ] || continue
  l="/tmp/raydb-lib/$(basename "${f%.*}")"
  unpack_to "$f" "$l.new.$$" && mv -f "$l.new.$$" "$l"
done
export LD_LIBRARY_PATH=/tmp/raydb-lib:${LD_LIBRARY_PATH:-}
R=$SRC/build/raydb
T=$SRC/build/tests
