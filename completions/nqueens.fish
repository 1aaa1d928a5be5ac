# fish completion for nqueens: the commands and the options of each; the values an
# option takes come from the tool (nqueens --list-values COMMAND OPTION), so that they
# are this build's engines, vector paths and formats.
set -l commands count merge verify list bench estimate help
# __nqueens_values COMMAND OPTION: the words the tool as typed lists for OPTION
function __nqueens_values
    set -l tool (commandline -opc)[1]
    $tool --list-values $argv 2>/dev/null
end
complete -c nqueens -f
complete -c nqueens -n "not __fish_seen_subcommand_from $commands" -a "$commands"
complete -c nqueens -n "__fish_seen_subcommand_from help" -a "count merge verify list bench estimate"
complete -c nqueens -s h -l help -d 'this help'
complete -c nqueens -s V -l version -d 'the version and what this build has'
for c in count verify list bench estimate
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -s t -l threads -x -a "(__nqueens_values $c --threads)" -d 'workers, 1..4096 or max'
end
for c in count verify bench estimate
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -s e -l engine -x -a "(__nqueens_values $c --engine)" -d 'engine'
end
for c in count verify bench
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -l devices -x -d 'GPUs for the cuda engine'
end
for c in count verify bench estimate
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -l simd -x -a "(__nqueens_values $c --simd)" -d "vector path of an engine's hot loops"
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -l max-memory -x -a "(__nqueens_values $c --max-memory)" -d 'refuse a count that needs more memory (512M, 8G)'
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -l worker-memory -x -d "memory each worker's lists may take (join)"
end
for c in count verify list bench
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -l prefix-rows -x -d 'rows the task source places'
    complete -c nqueens -n "__fish_seen_subcommand_from $c" -l no-pin -d 'do not pin workers to cores'
end
complete -c nqueens -n "__fish_seen_subcommand_from count merge verify estimate" -s j -l json -d 'JSON output'
complete -c nqueens -n "__fish_seen_subcommand_from count merge list" -s u -l unique -d 'up to symmetry'
complete -c nqueens -n "__fish_seen_subcommand_from count" -l slice -x -d 'count only slice K/M'
complete -c nqueens -n "__fish_seen_subcommand_from count" -l task-times -r -F -d 'CSV of task times'
complete -c nqueens -n "__fish_seen_subcommand_from merge" -F -d 'slice journal'
complete -c nqueens -n "__fish_seen_subcommand_from count" -l checkpoint -r -F -d 'journal for resuming'
complete -c nqueens -n "__fish_seen_subcommand_from count" -l subtotals -r -F -d 'CSV of task subtotals'
complete -c nqueens -n "__fish_seen_subcommand_from count" -l sync-interval -x -d 'seconds between fsyncs'
complete -c nqueens -n "__fish_seen_subcommand_from count list" -l progress -d 'progress on stderr (--progress=json)'
complete -c nqueens -n "__fish_seen_subcommand_from count list" -l no-progress -d 'no progress'
complete -c nqueens -n "__fish_seen_subcommand_from list" -s f -l format -x -a "(__nqueens_values list --format)" -d 'output format'
complete -c nqueens -n "__fish_seen_subcommand_from list" -s l -l limit -x -d 'stop after K solutions'
complete -c nqueens -n "__fish_seen_subcommand_from bench" -s n -l n -x -d 'board sizes, e.g. 14-17'
complete -c nqueens -n "__fish_seen_subcommand_from bench" -s r -l repeat -x -d 'timed runs'
complete -c nqueens -n "__fish_seen_subcommand_from bench" -s w -l warmup -x -d 'untimed runs'
complete -c nqueens -n "__fish_seen_subcommand_from bench" -s f -l format -x -a "(__nqueens_values bench --format)" -d 'report format'
complete -c nqueens -n "__fish_seen_subcommand_from bench" -s o -l out -r -F -d 'report file'
complete -c nqueens -n "__fish_seen_subcommand_from bench" -l export -x -a "(__nqueens_values bench --export | string replace -r '\$' =)" -d 'also write format F to FILE (F=FILE)'
complete -c nqueens -n "__fish_seen_subcommand_from estimate" -s s -l seconds -x -d 'seconds to sample for'
complete -c nqueens -n "__fish_seen_subcommand_from estimate" -l seed -x -d "the sample's seed"
complete -c nqueens -n "__fish_seen_subcommand_from estimate" -l max-tasks -x -d 'stop after K sampled tasks'
complete -c nqueens -n "__fish_seen_subcommand_from estimate" -l sample -r -F -d 'CSV of the sampled tasks'
complete -c nqueens -n "__fish_seen_subcommand_from estimate" -l prefix-rows -x -d 'rows the task source places'
