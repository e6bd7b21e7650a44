import { Argument, Command } from 'commander';

/** Every command path with the words that may follow it: subcommand names, or the command's options. */
function completionTable(command: Command, path: string): Array<{ path: string; words: string[] }> {
  const words = command.commands.length > 0 ? command.commands.map((sub) => sub.name()) : command.options.flatMap((option) => option.long ?? []);
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

export function registerCompletionCommands(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => {
      // zsh runs the bash function through its bashcompinit compatibility layer.
      const prelude = shell === 'zsh' ? '# pki zsh completion: eval "$(pki completion zsh)"\nautoload -U +X bashcompinit && bashcompinit\n' : '';
      process.stdout.write(prelude + bashScript(program));
    });
}
