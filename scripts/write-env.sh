#!/usr/bin/env bash
# Write a local .env once, for development on this machine. Never overwrites an existing one.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -e .env ] && exit 0
secret=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')
cat > .env <<ENV
# Local development settings, written once by make. Not committed. See .env.example for all.
SECRET_KEY=$secret
DEBUG=true
ENV
echo "Wrote .env for local development"
