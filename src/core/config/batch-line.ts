// The cmd.exe command line that runs a batch file (`npx.cmd`, `uvx.cmd`, a `.bat`) with arguments that
// reach the program it calls exactly as written. cmd.exe reads the line twice — once when it starts the
// batch file, again where the file passes `%*` on — and neither cross-spawn's escaping nor plain quoting
// survives both (node-cross-spawn#171, "BatBadBut", CVE-2024-27980): `&` or `|` after an inner quote
// runs a second command, `%NAME%` is replaced, `^` is eaten, a line break drops the rest. This follows
// the Rust standard library's fix for that advisory (std::sys::args::windows, `append_bat_arg`).

/**
 * The line for `cmd.exe /d /e:ON /v:OFF /s /c "<line>"`: the batch file and every argument in double
 * quotes, so `& | < > ^ ( ) !` are plain characters in both reads (`/v:OFF` turns `!NAME!` off); a
 * quote inside is doubled, which keeps cmd.exe's idea of what is quoted right and which the program's
 * own parser reads as one quote, and the backslashes before it are doubled too; `%` becomes
 * `%%cd:~,%`, which cmd.exe reads as `%` followed by an empty part of `%cd%`, so no `%NAME%` can form.
 * An argument with a line break or NUL cannot be passed at all: throws `BATCH_ARGUMENT`.
 */
export function batchCommandLine(script: string, args: readonly string[]): string {
  const bad = [script, ...args].findIndex(a => /[\r\n\0]/.test(a));
  if (bad >= 0) throw Object.assign(new Error(`argument ${bad}`), { code: 'BATCH_ARGUMENT', path: script, index: bad });
  return [script, ...args].map(quoteForBatch).join(' ');
}

function quoteForBatch(arg: string): string {
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes++;
      out += ch;
      continue;
    }
    if (ch === '"') out += '\\'.repeat(backslashes) + '""';
    else if (ch === '%') out += '%%cd:~,%';
    else out += ch;
    backslashes = 0;
  }
  // A closing quote after backslashes: the program's parser must read them as backslashes.
  return `${out}${'\\'.repeat(backslashes)}"`;
}

/**
 * A UNC path (`\\server\share`, `\\wsl.localhost\Ubuntu\…`, `\\?\…`): cmd.exe cannot use one as its
 * working folder and falls back to `C:\Windows`, where the batch file would then run.
 */
export function isNetworkFolder(folder: string): boolean {
  return /^[\\/]{2}/.test(folder);
}
