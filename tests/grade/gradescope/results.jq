# results.jq -- Gradescope's results.json format as a check: prints one line per
# rule a results.json breaks, nothing when it follows them all.
#
#   jq -r -f tests/grade/gradescope/results.jq results.json
#
# The format is Gradescope's "Autograder Specifications", section "Output format"
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/; its source is
# docs/specs.md of github.com/gradescope/autograder_samples, read at af5dee4,
# 2025-01-15). The keys it documents, and no others:
#   top level  score (a number; required unless every test has one), execution_time
#              (seconds), output, output_format, test_output_format, test_name_format,
#              visibility, stdout_visibility, extra_data (an object), tests (an
#              array; required when there is no top-level score), leaderboard
#   a test     score, max_score, status ("passed" | "failed"), name, name_format,
#              number, output, output_format, tags (strings), visibility, extra_data
#   visibility, stdout_visibility: hidden | after_due_date | after_published | visible
#   a format:  text | html | simple_format | md | ansi ("Output String Formatting")
# Then Chalk's own rules, which Gradescope does not ask for but the grader keeps:
# the top-level score is the sum of the tests' scores (the spec lets it override
# that sum: Chalk never does), every test has a name, a score between 0 and its
# max_score, and the status "passed" exactly when it scored its max_score.

def visibilities: ["hidden", "after_due_date", "after_published", "visible"];
def formats: ["text", "html", "simple_format", "md", "ansi"];
def top_keys: ["score", "execution_time", "output", "output_format", "test_output_format",
    "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"];
def test_keys: ["score", "max_score", "status", "name", "name_format", "number", "output",
    "output_format", "tags", "visibility", "extra_data"];
def one_of($set): type == "string" and (. as $v | $set | index([$v]) != null);
def is_num: type == "number";

# the rules a value at key $k of an object breaks, the object named $where
def field($where; $k):
    .[$k] as $v
    | if $k == "score" or $k == "max_score" or $k == "execution_time" then
          if ($v | is_num) then empty else "\($where): \($k) is not a number" end
      elif $k == "output" or $k == "name" or $k == "number" then
          if ($v | type) == "string" then empty else "\($where): \($k) is not a string" end
      elif $k == "visibility" or $k == "stdout_visibility" then
          if ($v | one_of(visibilities)) then empty
          else "\($where): \($k) is \($v | tojson), not one of \(visibilities | join(", "))" end
      elif $k | test("format$") then
          if ($v | one_of(formats)) then empty
          else "\($where): \($k) is \($v | tojson), not one of \(formats | join(", "))" end
      elif $k == "extra_data" then
          if ($v | type) == "object" then empty else "\($where): extra_data is not an object" end
      elif $k == "status" then
          if ($v | one_of(["passed", "failed"])) then empty
          else "\($where): status is \($v | tojson), not passed or failed" end
      elif $k == "tags" then
          if ($v | type) == "array" and all($v[]; type == "string") then empty
          else "\($where): tags is not an array of strings" end
      elif $k == "tests" or $k == "leaderboard" then
          if ($v | type) == "array" then empty else "\($where): \($k) is not an array" end
      else empty end;

if type != "object" then "results.json is not a JSON object"
else
    (keys - top_keys | .[] | "top level: \(tojson) is not a key Gradescope documents"),
    (. as $r | keys[] as $k | $r | field("top level"; $k)),
    (if has("score") or ((.tests | type) == "array" and (.tests | length) > 0
                         and all(.tests[]; type == "object" and has("score"))) then empty
     else "no score: neither a top-level score nor one on every test" end),
    (if (.tests | type) == "array" then
        (.tests | to_entries[]
         | .key as $i | .value as $t | "test \($i + 1)" as $w
         | if ($t | type) != "object" then "\($w) is not an object"
           else
               ($t | keys - test_keys | .[] | "\($w): \(tojson) is not a key Gradescope documents"),
               ($t | keys[] as $k | $t | field($w; $k)),
               # Chalk's rules
               (if ($t.name | type) == "string" and ($t.name | length) > 0 then empty
                else "\($w): no name" end),
               (if ($t.score | is_num) and ($t.max_score | is_num) then
                    (if $t.score < 0 or $t.score > $t.max_score then
                         "\($w) (\($t.name)): score \($t.score) is outside 0..\($t.max_score)"
                     else empty end),
                    (if ($t.status == "passed") != ($t.score == $t.max_score) then
                         "\($w) (\($t.name)): status \($t.status) with \($t.score) of \($t.max_score)"
                     else empty end)
                else "\($w) (\($t.name)): no score and max_score" end)
           end),
        (([.tests[] | objects | .score | numbers] | add // 0) as $sum
         | if (.score | is_num) and ((.score - $sum) | if . < 0 then -. else . end) > 1e-9 then
               "top level: score \(.score) is not the sum of the tests' scores (\($sum))"
           else empty end)
     else empty end)
end
