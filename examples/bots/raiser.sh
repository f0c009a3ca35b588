#!/bin/sh
# raiser: a bot of razz-env's bot protocol (docs/protocol.md) in POSIX sh. It bets, completes or raises whenever
# it may, else checks, calls or brings in.
#
#   python -c "from razz_env.evaluate import match; print(match('cmd:examples/bots/raiser.sh', 'calling_station', deals=100))"
#
# The dealer writes compact JSON with "type" first and "legal" last, so matching text is enough here; a bot that
# reads more of the hand should parse JSON. (`read` takes one line at a time from a pipe, where awk, say, may wait
# for more input before it answers.)
while IFS= read -r message; do
    case $message in
        '{"type":"hello"'*)
            echo '{"ready":true,"name":"raiser"}' ;;
        '{"type":"act"'*)
            legal=${message#*'"legal":['}
            legal=${legal%%]*}
            for action in raise bet complete bet_big check call bring_in fold; do
                case $legal in
                    *"\"$action\""*) echo "{\"action\":\"$action\"}"; break ;;
                esac
            done ;;
        '{"type":"bye"'*)
            exit 0 ;;
    esac
done
