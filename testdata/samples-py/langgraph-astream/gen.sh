#!/bin/sh
# Regenerate the fixtures of this folder: a throw-away venv with the exact pins, then gen.py.
# Offline apart from PyPI: the model is a scripted HTTP transport. Ids and times change, counts do not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=$(mktemp -d)/venv
python3 -m venv "$venv"
"$venv/bin/pip" install -q -r "$here/requirements.txt"
cd "$here" && "$venv/bin/python" -W ignore gen.py
rm -rf "$(dirname "$venv")"
