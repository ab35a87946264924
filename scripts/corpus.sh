#!/usr/bin/env bash
# The real documents the tests read (tests/sources/test_real_documents.py): manuals Debian ships in
# its packages' documentation folders, copied into build/corpus/: a specification typeset by
# DocBook's tools and a manual typeset by Texinfo (both PDFs with bookmarks), and the bash manual
# page typeset by groff (a PDF without bookmarks, its headings out at the margin) and as man2html's
# web page. Taken from the installed package
# when it is there, else from the package file itself (apt-get download: no root needed, and the
# file is there even on systems that leave /usr/share/doc out).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=build/corpus
mkdir -p "$corpus"

documents=(  # package:path inside it
  shared-mime-info:usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf
  libtasn1-doc:usr/share/doc/libtasn1-doc/libtasn1.pdf
  bash-doc:usr/share/doc/bash/bash.pdf
  bash-doc:usr/share/doc/bash/bash.html
)

download() {  # the package's .deb into the current folder, refreshing the package lists once if need be
  apt-get download -qq "$1" 2>/dev/null && return
  if [ "$(id -u)" -eq 0 ]; then apt-get update -qq; elif sudo -n true 2>/dev/null; then sudo apt-get update -qq; fi
  apt-get download -qq "$1"
}

for entry in "${documents[@]}"; do
  package=${entry%%:*}
  path=${entry#*:}
  target="$corpus/$(basename "$path")"
  [ -s "$target" ] && continue
  if [ -s "/$path" ]; then
    cp "/$path" "$target"
    continue
  fi
  work=$(mktemp -d)
  (cd "$work" && download "$package")
  dpkg-deb -x "$work"/*.deb "$work/root"
  cp "$work/root/$path" "$target"
  rm -rf "$work"
done
