#!/usr/bin/env bash
# A self-signed certificate for the class hub's HTTPS, when the school has none of its own:
#   bash deploy/jupyterhub/self-signed-cert.sh DIR NAME [IP]
# writes DIR/hub.crt and DIR/hub.key (0600) for the host NAME (and its address IP), valid for a
# year. Pupils' browsers warn once about a certificate they don't know: install hub.crt on the
# class's machines as a trusted certificate to silence it (the IT guide says how). Then start the
# hub with LOO_HUB_SSL_CERT=DIR/hub.crt LOO_HUB_SSL_KEY=DIR/hub.key.
set -euo pipefail
dir=${1:?usage: self-signed-cert.sh DIR NAME [IP]}
name=${2:?usage: self-signed-cert.sh DIR NAME [IP]}
ip=${3:-}
san="DNS:${name}"
if [[ -n $ip ]]; then san="${san},IP:${ip}"; fi
install -d -m 0700 "$dir"
umask 077
openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=${name}" \
  -addext "subjectAltName=${san}" -keyout "$dir/hub.key" -out "$dir/hub.crt" 2>/dev/null
chmod 0644 "$dir/hub.crt"
echo "$dir/hub.crt and $dir/hub.key: a self-signed certificate for ${name}${ip:+ ($ip)}, valid 365 days"
