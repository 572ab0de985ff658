#!/usr/bin/env bash
# Puts back the kernel settings a kubelet changed, from the file sysctls.ts wrote before the first
# start (lines "<key> <value>"), then removes the file. Called by the real node's and the cluster's
# cleanup.sh. Usage: restore-sysctls.sh <backup file>
set -uo pipefail
backup="${1:?usage: restore-sysctls.sh <backup file>}"
[[ -f "$backup" ]] || exit 0
while read -r key value; do
  [[ -n "$key" ]] && sysctl -q -w "$key=$value" >/dev/null 2>&1
done < "$backup"
rm -f "$backup"
