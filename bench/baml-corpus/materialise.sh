#!/usr/bin/env bash
# Materialise the BAML compatibility corpus: for each row of bench/baml-corpus/sources.tsv (group,
# repository, commit, path), copy that commit's `path` folder out of a local git mirror of the repository
# into DIR/<owner>+<repo>[+<path>]/baml_src. Nothing fetched is ever copied into this repository.
#
#   bench/baml-corpus/materialise.sh [DIR=/tmp/baml-corpus] [MIRRORS=/work/.mirror]
#
# A mirror is a git directory at MIRRORS/<owner>+<repo>/repo (a bare repository, or a clone's .git); get
# one with `git clone --mirror https://github.com/<owner>/<repo> MIRRORS/<owner>+<repo>/repo`. Rows whose
# mirror or commit is missing are listed and skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-/tmp/baml-corpus}
mirrors=${2:-/work/.mirror}
mkdir -p "$dir"
missing=0
while IFS=$'\t' read -r group repo commit path; do
  [[ -z "$group" || "$group" == \#* ]] && continue
  git=$mirrors/${repo/\//+}/repo
  [[ -d "$git/.git" ]] && git=$git/.git
  name=${repo/\//+}
  [[ "$path" != "baml_src" ]] && name=$name+${path//\//+}
  target=$dir/$group/$name
  if ! git --git-dir="$git" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "missing: $repo@$commit" >&2
    missing=$((missing + 1))
    continue
  fi
  rm -rf "$target"
  mkdir -p "$target/baml_src"
  # Only the project folder; files the snapshot lacks (large binaries) are skipped, .baml files never are.
  git --git-dir="$git" archive "$commit" "$path" 2>/dev/null |
    tar -x -C "$target/baml_src" --strip-components="$(($(tr -cd / <<<"$path" | wc -c) + 1))" || true
done <"$here/bench/baml-corpus/sources.tsv"
echo "materialised into $dir ($missing missing)"
