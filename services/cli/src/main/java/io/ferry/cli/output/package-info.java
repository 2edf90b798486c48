/** How answers are printed: table, json, yaml or tsv, human units, problems as one line. */
package io.ferry.cli.output;
