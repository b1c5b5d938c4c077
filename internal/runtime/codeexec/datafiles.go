package codeexec

import (
	"fmt"
	"regexp"
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// dataFile is how ADK's data-file preprocessing reads one MIME type.
type dataFile struct {
	extension string
	// loader is the Python expression that loads the file; %s is its name.
	loader string
}

// dataFiles are the MIME types ADK's optimize_data_file extracts.
var dataFiles = map[string]dataFile{
	"text/csv": {extension: ".csv", loader: "pd.read_csv('%s')"},
}

// cropHelper is the crop function ADK 2.x defines before explore_df, which
// calls it.
const cropHelper = `
def crop(s: str, max_chars: int = 64) -> str:
  """Crops a string to max_chars characters."""
  if len(s) <= max_chars:
    return s
  if max_chars >= 3:
    return s[:max_chars - 3] + '...'
  return s[:max_chars]
`

// exploreHelper is the Python ADK runs before exploring a data file; %s is
// where ADK 2.x defines crop.
const exploreHelper = `
import pandas as pd
%s
def explore_df(df: pd.DataFrame) -> None:
  """Prints some information about a pandas DataFrame."""

  with pd.option_context(
      'display.max_columns', None, 'display.expand_frame_repr', False
  ):
    # Print the column names to never encounter KeyError when selecting one.
    df_dtypes = df.dtypes

    # Obtain information about data types and missing values.
    df_nulls = (len(df) - df.isnull().sum()).apply(
        lambda x: f'{x} / {df.shape[0]} non-null'
    )

    # Explore unique total values in columns using ` + "`.unique()`" + `.
    df_unique_count = df.apply(lambda x: len(x.unique()))

    # Explore unique values in columns using ` + "`.unique()`" + `.
    df_unique = df.apply(lambda x: crop(str(list(x.unique()))))

    df_info = pd.concat(
        (
            df_dtypes.rename('Dtype'),
            df_nulls.rename('Non-Null Count'),
            df_unique_count.rename('Unique Values Count'),
            df_unique.rename('Unique Values'),
        ),
        axis=1,
    )
    df_info.index.name = 'Columns'
    print(f"""Total rows: {df.shape[0]}
Total columns: {df.shape[1]}

{df_info}""")
`

// ExtractDataFiles is ADK's _extract_and_replace_inline_files: each inline
// part of a supported MIME type in contents becomes the text naming it
// (data_<content>_<part>.csv, counted from 1) and, unless held already, a
// held input file. It returns every held file. Changed contents are
// replaced by copies; the parts of others are not touched. ADK 1.x reads
// every content with parts (its test of the role lets them through); 2.x
// (userOnly) reads the user's contents only.
func ExtractDataFiles(s *State, contents []*v1.Content, userOnly bool) []File {
	all := s.InputFiles()
	saved := make(map[string]bool, len(all))
	for _, f := range all {
		saved[f.Name] = true
	}
	for i, c := range contents {
		// ADK 1.x's test lets every content with parts through,
		// whatever its role.
		skip := c.Role != "user" && len(c.Parts) == 0
		if userOnly {
			skip = c.Role != "user" || len(c.Parts) == 0
		}
		if skip {
			continue
		}
		copied := false
		for j, p := range c.Parts {
			inline := p.GetInlineData()
			df, ok := dataFiles[inline.GetMimeType()]
			if inline == nil || !ok {
				continue
			}
			if !copied {
				c = shallowCopy(c)
				contents[i] = c
				copied = true
			}
			name := fmt.Sprintf("data_%d_%d%s", i+1, j+1, df.extension)
			c.Parts[j] = &v1.Part{Text: "\nAvailable file: `" + name + "`\n"}
			if !saved[name] {
				f := File{Name: name, MimeType: inline.GetMimeType(), Content: inline.GetData()}
				s.AddInputFiles(f)
				all = append(all, f)
				saved[name] = true
			}
		}
	}
	return all
}

var nonIdentifier = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// ExploreCode is ADK's _get_data_file_preprocessing_code: the Python that
// loads f and prints what it holds; "" for an unsupported MIME type. ADK
// 2.x (withCrop) also defines the crop function explore_df calls.
func ExploreCode(f File, withCrop bool) string {
	df, ok := dataFiles[f.MimeType]
	if !ok {
		return ""
	}
	stem := f.Name
	if dot := strings.LastIndexByte(stem, '.'); dot > 0 && strings.Trim(stem[:dot], ".") != "" {
		stem = stem[:dot]
	}
	v := nonIdentifier.ReplaceAllString(stem, "_")
	if v != "" && v[0] >= '0' && v[0] <= '9' {
		v = "_" + v
	}
	crop := ""
	if withCrop {
		crop = cropHelper
	}
	if v == "" {
		v = "_data"
	}
	return "\n" + fmt.Sprintf(exploreHelper, crop) + "\n\n# Load the dataframe.\n" + v + " = " + fmt.Sprintf(df.loader, f.Name) +
		"\n\n# Use `explore_df` to guide my analysis.\nexplore_df(" + v + ")\n"
}

// ProcessingText is the text ADK puts before a data file's explore code.
func ProcessingText(name string) string { return "Processing input file: `" + name + "`" }

// nonBuiltInInstruction is the instruction ADK 2.x adds for a client
// executor that reads data files, with the first code block delimiters.
const nonBuiltInInstruction = `# CRITICAL: Code execution format

You have access to an external Python sandbox managed by the host
application. To run Python code, output it inside a fenced markdown
block exactly like this:

%sprint("hello")
%s

DO NOT emit native executable_code parts.
DO NOT attempt to call a code_execution tool — no such tool is
registered for this request and the API will reject the response with
UNEXPECTED_TOOL_CALL or MALFORMED_FUNCTION_CALL.

Always wrap Python code in the markdown fence shown above.
`

// FenceInstruction is ADK 2.x's instruction steering the model to fenced
// code blocks (its _NON_BUILTIN_EXECUTOR_INSTRUCTION).
func (e *Executor) FenceInstruction() string {
	d := Delimiters{"```tool_code\n", "\n```"}
	if len(e.blocks) > 0 {
		d = e.blocks[0]
	}
	return fmt.Sprintf(nonBuiltInInstruction, d.Open, d.Close)
}
