#!/bin/bash
# Chancery beside docker-mailserver: docker-compose.yml mounts this file as
# /tmp/docker-mailserver/user-patches.sh, which docker-mailserver runs at every start, after
# its own configuration and before its daemons.
#
# RFC 8601 section 5, as docs/deploying.md ("Authentication-Results") requires of the MX: a
# border MX removes the incoming Authentication-Results headers that claim its own
# authserv-id before anything trusts them, then adds its own. docker-mailserver's OpenDKIM
# and OpenDMARC add theirs under the mail server's host name but remove none, so a sender
# could write "dkim=pass" under that name at the top of a mail, and Chancery (which trusts
# the topmost header carrying its authserv_id) would believe it in the games whose rules
# accept DKIM. This removes them twice over:
#   1. Postfix's header_checks drop them as the mail comes in (the milters' own headers are
#      added after, and survive);
#   2. OpenDKIM drops any that reach it (RemoveARFrom, RemoveARAll), before OpenDMARC reads
#      the results, and writes its own under the same id.
# A milter that does not answer makes the mail wait (4xx, tempfail) rather than arrive
# unchecked.
#
# The authserv-id is the mail server's host name (Postfix's myhostname, OVERRIDE_HOSTNAME in
# deploy/mailserver.env): authserv_id in deploy/chancery.toml must be the same.
set -euo pipefail

# For tests/deploy.rs, which runs this outside the container on files of its own.
postconf=${CHANCERY_POSTCONF:-postconf}
maps=${CHANCERY_POSTFIX_MAPS:-/etc/postfix/maps}
opendkim_conf=${CHANCERY_OPENDKIM_CONF:-/etc/opendkim.conf}

# shellcheck disable=SC2086 # $postconf may carry options (postconf -c DIR)
id=$($postconf -h myhostname)
if [[ ! $id =~ ^[A-Za-z0-9.-]+$ ]]; then
    echo "chancery user-patches: host name '$id' may only contain letters, digits, dots and hyphens" >&2
    exit 1
fi
id_re=${id//./\\.}

# 1. Postfix: the id may follow comments and folding, may be quoted, and must end there
# ("mail.example.org.evil" is another id, and stays). Regexp tables ignore case.
table=$maps/chancery-authentication-results
mkdir -p "$maps"
{
    echo "# Written by Chancery's deploy/mailserver/user-patches.sh at every start (RFC 8601 section 5)."
    printf '/^Authentication-Results[[:space:]]*:[[:space:]]*(\\([^)]*\\)[[:space:]]*)*"?%s"?([[:space:];(]|$)/ IGNORE\n' "$id_re"
} >"$table"
# shellcheck disable=SC2086
checks=$($postconf -h header_checks)
case " $checks " in
*" regexp:$table "*) ;;
*)
    # shellcheck disable=SC2086
    $postconf -e "header_checks = regexp:$table${checks:+ $checks}"
    ;;
esac
# shellcheck disable=SC2086
$postconf -e "milter_default_action = tempfail"

# 2. OpenDKIM (when enabled: ENABLE_OPENDKIM=1 in deploy/mailserver.env).
if [[ -f $opendkim_conf ]]; then
    sed -i -E '/^(AuthservID|RemoveARFrom|RemoveARAll)([[:space:]]|$)/d' "$opendkim_conf"
    printf 'AuthservID              %s\nRemoveARFrom            %s\nRemoveARAll             yes\n' \
        "$id" "$id" >>"$opendkim_conf"
fi
