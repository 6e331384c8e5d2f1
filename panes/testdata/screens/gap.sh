#!/bin/bash
# gap.sh AGENT GAP TRIALS measures a submit gap (Adapter.SubmitGap): per
# trial a fresh CLI (HOME copied from /tmp/clowder-screens/home-AGENT, set
# up by going through its dialogs once), PRE seconds (default 1) after its
# prompt shows a bracketed paste, GAP seconds, then CR; "ok" when the CLI
# answered, "lost" (screen saved) when the text stayed in its prompt.
. "$(dirname "$0")/cap.sh"
agent=$1 gap=$2 n=$3
for i in $(seq 1 $n); do
  h=/tmp/clowder-screens/gap-$agent-$i; rm -rf $h; cp -r /tmp/clowder-screens/home-$agent $h
  s=gap$agent$i
  case $agent in
  claude) start $s $h claude; ready="? for shortcuts"; ok="Please run /login";;
  gemini) start $s $h gemini; ready="Type your message"; ok="esc to cancel";;
  codex) start $s $h codex --no-daemon; ready="Ask Codex"; ok="esc to interrupt";;
  esac
  waitfor $s "$ready" || { echo "$agent $gap not-ready"; stop $s; continue; }
  sleep ${PRE:-1}
  if [ "$gap" = 0 ]; then
    $T send-keys -t $s -l $'\e[200~hello there\e[201~\r'
  else
    $T send-keys -t $s -l $'\e[200~hello there\e[201~'; sleep $gap; $T send-keys -t $s Enter
  fi
  r=lost; for k in $(seq 1 80); do $T capture-pane -p -t $s | grep -qF "$ok" && { r=ok; break; }; sleep 0.1; done
  echo "$agent gap=$gap trial=$i $r"
  [ $r = lost ] && $T capture-pane -p -t $s > /tmp/clowder-screens/lost-$agent-$gap-$i.txt
  stop $s
done
