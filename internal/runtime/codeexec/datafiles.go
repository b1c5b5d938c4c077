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

// exploreHelper is the Python ADK runs before exploring a data file.
const exploreHelper = `
import pandas as pd

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
// replaced by copies; the parts of others are not touched.
func ExtractDataFiles(s *State, contents []*v1.Content) []File {
	all := s.InputFiles()
	saved := make(map[string]bool, len(all))
	for _, f := range all {
		saved[f.Name] = true
	}
	for i, c := range contents {
		// ADK's test lets every content with parts through, whatever
		// its role.
		if c.Role != "user" && len(c.Parts) == 0 {
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
// loads f and prints what it holds; "" for an unsupported MIME type.
func ExploreCode(f File) string {
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
	return "\n" + exploreHelper + "\n\n# Load the dataframe.\n" + v + " = " + fmt.Sprintf(df.loader, f.Name) +
		"\n\n# Use `explore_df` to guide my analysis.\nexplore_df(" + v + ")\n"
}

// ProcessingText is the text ADK puts before a data file's explore code.
func ProcessingText(name string) string { return "Processing input file: `" + name + "`" }
