#!/bin/sh
# The runtime root of virtgate's images (Dockerfile.agent, Dockerfile.aggregator), assembled in a
# Debian build stage the way distroless images are: only the files the programs load, no package
# manager, no npm. Copies into <root>:
#   - the Node binary, stripped of its symbol table (127 MB -> 109 MB; its dynamic symbols stay, so
#     native addons such as koffi still load), at /usr/local/bin/node;
#   - each further program named (e.g. /usr/bin/virt-host-validate, /bin/sh) at its own path;
#   - every shared library `ldd` names for them (glibc, libstdc++, libgcc, ...), at its soname;
#   - Debian's CA bundle, an /etc/passwd and /etc/group with root and node (1000), /tmp;
#   - /var/lib/dpkg/status with the Debian packages those files came from, for scanners and the
#     release's SBOM (scripts/release/sbom.ts).
# Run as root in the build stage: image-root.sh <root> <program>...  (NODE_BINARY: another node)
set -eu
node="${NODE_BINARY:-/usr/local/bin/node}"
root="$1"
shift
files="$(mktemp)"

# Merged /usr, as Debian bookworm: /bin, /lib, /lib64 and /sbin are links into /usr.
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" "$root/usr/local/bin" "$root/etc/ssl/certs" "$root/var/lib/dpkg" "$root/home/node" "$root/tmp"
for dir in bin sbin lib lib64; do
  if [ -L "/$dir" ]; then
    mkdir -p "$root/usr/$dir"
    ln -s "usr/$dir" "$root/$dir"
  fi
done
chmod 1777 "$root/tmp"
chown 1000:1000 "$root/home/node"

# A file at its real directory under <root>, under the name it was asked by (a soname, /bin/sh),
# with the content of what that name points to.
place() {
  target="$root$(readlink -f "$(dirname "$1")")/$(basename "$1")"
  mkdir -p "$(dirname "$target")"
  cp -L "$1" "$target"
  echo "$1" >> "$files"
}

libraries() {
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
}

strip --strip-all -o "$root/usr/local/bin/node" "$node"
libraries "$node" | sort -u | while read -r lib; do place "$lib"; done
for program in "$@"; do
  place "$program"
  libraries "$program" | sort -u | while read -r lib; do [ -e "$root$(readlink -f "$(dirname "$lib")")/$(basename "$lib")" ] || place "$lib"; done
done
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnode:x:1000:1000::/home/node:/usr/sbin/nologin\n' > "$root/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' > "$root/etc/group"

# The package owning each copied file: dpkg knows a file by the path its package ships it at,
# which under merged /usr may be the /lib or the /usr/lib spelling.
owner() {
  for path in "$1" "$(readlink -f "$1")" "/usr$1" "${1#/usr}"; do
    found="$(dpkg-query -S "$path" 2>/dev/null | grep -v '^diversion' | head -n 1)" || true
    if [ -n "$found" ]; then
      echo "${found%%: /*}" | tr ',' '\n' | sed 's/^ *//; s/:.*//'
      return 0
    fi
  done
  echo "image-root.sh: no Debian package owns $1" >&2
  return 1
}
packages="$( (while read -r file; do owner "$file"; done < "$files"; echo ca-certificates) | sort -u)"
# shellcheck disable=SC2086 # one argument per package
dpkg-query --status $packages > "$root/var/lib/dpkg/status"
rm -f "$files"
