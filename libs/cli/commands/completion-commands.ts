import { Argument, Command } from 'commander';

/** Every command path with the words that may follow it: subcommand names, or the command's options. */
function completionTable(command: Command, path: string): Array<{ path: string; words: string[] }> {
  const words =
    command.commands.length > 0 ? command.commands.map((sub) => sub.name()) : command.options.flatMap((option) => option.long ?? []);
  const nested = command.commands.flatMap((sub) => completionTable(sub, `${path} ${sub.name()}`));
  // Deepest paths first: the shell case statement must try `pki ca create` before `pki ca`.
  return [...nested, { path, words: [...words, '--help'] }];
}

/**
 * A bash completion function built from the command tree. Words that are not subcommands (IDs,
 * option values) are kept in the matched path, hence the `"path "*` patterns.
 */
function bashScript(program: Command): string {
  const cases = completionTable(program, program.name())
    .map(({ path, words }) => `    "${path}"|"${path} "*) words="${words.join(' ')}" ;;`)
    .join('\n');
  return `# pki bash completion: eval "$(pki completion bash)"
_pki_complete() {
  local cur words path i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  path="pki"
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) path="$path \${COMP_WORDS[i]}" ;; esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _pki_complete pki
`;
}

/**
 * The fish equivalent: the same table in a `switch`, fed by the words before the cursor. Fish matches
 * `case` patterns as wildcards even when quoted, so the patterns read as in bash.
 */
function fishScript(program: Command): string {
  const cases = completionTable(program, program.name())
    .map(({ path, words }) => `        case '${path}' '${path} *'\n            printf '%s\\n' ${words.join(' ')}`)
    .join('\n');
  return `# pki fish completion: pki completion fish > ~/.config/fish/completions/pki.fish
function __pki_complete
    set -l path pki
    for word in (commandline -opc)[2..-1]
        string match -q -- '-*' $word; or set path "$path $word"
    end
    switch "$path"
${cases}
    end
end
complete -c pki -f -a '(__pki_complete)'
`;
}

export function registerCompletionCommands(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(['bash', 'zsh', 'fish']))
    .action((shell: 'bash' | 'zsh' | 'fish') => {
      if (shell === 'fish') return void process.stdout.write(fishScript(program));
      // zsh runs the bash function through its bashcompinit compatibility layer.
      const prelude =
        shell === 'zsh' ? '# pki zsh completion: eval "$(pki completion zsh)"\nautoload -U +X bashcompinit && bashcompinit\n' : '';
      process.stdout.write(prelude + bashScript(program));
    });
}
