#!/usr/bin/env bash
# The four datasets of Zhao & Gordon's Table 1, as features.csv + labels.csv pairs in $1 (default
# build/benchmarks/data), from Debian packages (data/README.md says where each comes from):
#   blood      748 x 4   r-cran-ddalpha's bloodtransfusion (Monetary rebuilt as 250 x Frequency)
#   yeast      in no Debian package: r-cran-mlbench's Vowel (990 x 9, 11 classes) stands in
#   satimage   4435 x 36 the bundled data/satimage.csv, rows 1-4435 (the Statlog training part)
#   pendigits  in no Debian package: r-cran-mlbench's LetterRecognition, first 10992 rows (16 features)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/benchmarks/data}
mkdir -p "$out"
bash cmake/install-deps.sh r-base-core r-cran-mlbench r-cran-ddalpha
blood=/usr/lib/R/site-library/ddalpha/data/bloodtransfusion.txt.gz
# ddalpha's header says "Recency Frequency Monetary C", but its third column is UCI's Time (months
# since the first donation); UCI's Monetary (c.c. of blood) is exactly 250 x Frequency
zcat "$blood" | awk 'NR > 1 { print $1 "," $2 "," 250 * $2 "," $3 > "'"$out"'/blood.csv"; print $4 > "'"$out"'/blood_labels.csv" }'
head -n 4435 data/satimage.csv > "$out/satimage.csv"
head -n 4435 data/satimage_labels.csv > "$out/satimage_labels.csv"
Rscript -e 'library(mlbench); out <- commandArgs(TRUE)[1]
  data(Vowel); V <- Vowel[, 2:10]
  write.table(as.matrix(V), file.path(out, "vowel.csv"), sep = ",", row.names = FALSE, col.names = FALSE)
  write.table(as.integer(Vowel$Class), file.path(out, "vowel_labels.csv"), row.names = FALSE, col.names = FALSE)
  data(LetterRecognition); L <- LetterRecognition[1:10992, ]
  write.table(as.matrix(L[, 2:17]), file.path(out, "letters.csv"), sep = ",", row.names = FALSE, col.names = FALSE)
  write.table(as.integer(L$lettr), file.path(out, "letters_labels.csv"), row.names = FALSE, col.names = FALSE)' "$out"
wc -l "$out"/*.csv
