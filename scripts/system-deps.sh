#!/usr/bin/env bash
# Debian packages the app and its tests need; installs only what is missing.
#   fonts-noto-core       Noto Sans (Latin, Vietnamese, Greek) and Noto Sans Thai,
#                         TrueType outlines that reportlab can embed in the PDF.
#   fonts-droid-fallback  Droid Sans Fallback, a TrueType CJK font (Noto CJK is CFF,
#                         which reportlab cannot embed).
#   poppler-utils         pdftoppm/pdftotext, used by the tests to look at PDFs.
#   chromium              the browser the Playwright tests drive (playwright cannot
#                         download its own browsers here).
set -euo pipefail
want=("$@")
[ ${#want[@]} -gt 0 ] || want=(fonts-noto-core fonts-droid-fallback)
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "Installing Debian packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
