#!/usr/bin/env zsh
# Presses TAB at the end of each line of LINES in an interactive zsh (zsh -f -i in a
# pseudo-terminal, zsh/zpty) that ran compinit with DIR first on its fpath and BIN first
# on its path, and writes to OUT every word the completion offers (each compadd's
# matching words, caught by a compadd function around the builtin), then "@@ K" after
# the K-th line's.
# usage: zsh -f completion_zsh_harness.zsh DIR BIN LINES OUT
#
# TAB is bound to a widget that completes, empties the line and writes "@@ K" from
# inside the line editor, and the next line is typed only once "@@ K" is in OUT: each
# line waits for its completion to have run, however slow the machine, and no command
# runs between two lines. (Typing while zsh ran a command between lines raced its
# return to the line editor: a line typed while the terminal was still in cooked mode
# was erased by the terminal's own ^U, so that TAB completed nothing.)
emulate -L zsh
zmodload zsh/zpty zsh/zselect || exit 77
dir=$1 bin=$2 lines=$3 out=$4
: >$out

# reads what the shell prints (its pty would fill up and stop it) until OUT ends with
# the line $1; 1 after 20 s
await() {
  local chunk seen deadline=$(( SECONDS + 20 ))
  local -a got
  while (( SECONDS < deadline )); do
    while zpty -rt comp chunk 2>/dev/null; do seen+=$chunk; done
    got=(${(@f)"$(<$out)"})
    [[ $got[-1] == $1 ]] && return 0
    zselect -t 5
  done
  print -u2 "zsh did not answer ($1) in 20 s; it printed: ${seen[-500,-1]}"
  return 1
}

zpty comp env TERM=xterm PATH=$bin:$PATH zsh -f -i || exit 1
zpty -w comp "bindkey -e; setopt no_beep no_auto_list no_list_ambiguous no_auto_menu"
zpty -w comp "fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
# compadd calls that only ask (-O, -A: into an array; -D: filter one) pass through
zpty -w comp "compadd() { if (( \${@[(I)-[OAD]*]} )); then builtin compadd \"\$@\"; return; fi;
  local -a m; builtin compadd -O m \"\$@\"; print -rl -- \$m >>${(q)out}; builtin compadd \"\$@\"; }"
# TAB: the completion TAB runs (expand-or-complete, compinit's), then the marker
zpty -w comp "_nq_k=0; _nq_tab() { zle expand-or-complete; BUFFER=; CURSOR=0;
  print -r -- \"@@ \$(( ++_nq_k ))\" >>${(q)out}; }; zle -N _nq_tab; bindkey '^I' _nq_tab"
zpty -w comp "print -r -- '@@ 0' >>${(q)out}"
await '@@ 0' || exit 1
k=0
while IFS= read -r line; do
  (( k++ ))
  zpty -w -n comp "$line"$'\t'
  await "@@ $k" || exit 1
done <$lines
zpty -d comp
