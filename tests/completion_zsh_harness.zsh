#!/usr/bin/env zsh
# Presses TAB at the end of each line of LINES in an interactive zsh (zsh -f -i in a
# pseudo-terminal, zsh/zpty) that ran compinit with DIR first on its fpath and BIN first
# on its path, and writes to OUT every word the completion offers (each compadd's
# matching words, caught by a compadd function around the builtin), then "@@ K" after
# the K-th line's.
# usage: zsh -f completion_zsh_harness.zsh DIR BIN LINES OUT
emulate -L zsh
zmodload zsh/zpty zsh/zselect || exit 77
dir=$1 bin=$2 lines=$3 out=$4
: >$out

# reads what the shell prints (its pty would fill up and stop it) until OUT ends with
# the line $1; 1 after 20 s
await() {
  local chunk tries=0
  local -a got
  while (( tries++ < 400 )); do
    while zpty -rt comp chunk 2>/dev/null; do :; done
    got=(${(@f)"$(<$out)"})
    [[ $got[-1] == $1 ]] && return 0
    zselect -t 5
  done
  print -u2 "zsh did not answer ($1); it printed: $chunk"
  return 1
}

zpty comp env TERM=xterm PATH=$bin:$PATH zsh -f -i || exit 1
zpty -w comp "bindkey -e; setopt no_beep no_auto_list no_list_ambiguous no_auto_menu"
zpty -w comp "fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
# compadd calls that only ask (-O, -A: into an array; -D: filter one) pass through
zpty -w comp "compadd() { if (( \${@[(I)-[OAD]*]} )); then builtin compadd \"\$@\"; return; fi;
  local -a m; builtin compadd -O m \"\$@\"; print -rl -- \$m >>${(q)out}; builtin compadd \"\$@\"; }"
zpty -w comp "print -r -- '@@ 0' >>${(q)out}"
await '@@ 0' || exit 1
k=0
while IFS= read -r line; do
  (( k++ ))
  # TAB, then ^U (kill-whole-line) leaves the line empty for the marker
  zpty -w -n comp "$line"$'\t\C-u'
  zpty -w comp "print -r -- '@@ $k' >>${(q)out}"
  await "@@ $k" || exit 1
done <$lines
zpty -d comp
