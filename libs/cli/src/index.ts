/** The lab's command lines: value rules, bilingual help, exit codes. */
export {
  choiceOption,
  cliLanguage,
  cliCommand,
  commaList,
  exitOnCliError,
  filePath,
  plainOption,
  givenOnCommandLine,
  HelpRequested,
  httpUrl,
  httpUrls,
  parseCommand,
  repeatable,
  say,
  UsageError,
  valueOption,
  wholeNumber,
  wholeNumberList,
  type Bilingual,
  type ValueRule,
} from './cli-options';
export type { Command, Option } from 'commander';
