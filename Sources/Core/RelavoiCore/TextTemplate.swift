/// Fills a translated text's placeholders: C's `%s` and `%d` take the values
/// in order, `%2$s` names one (a translation may reorder them), `%%` is a
/// percent sign. The same conventions `msgfmt --check` checks in c-format
/// messages. A missing value leaves its placeholder as it is.
public enum TextTemplate {
    public static func fill(_ template: String, _ values: [String]) -> String {
        let scalars = Array(template.unicodeScalars)
        var result = String.UnicodeScalarView()
        var nextValue = 0
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "%", index + 1 < scalars.count else {
                result.append(scalars[index])
                index += 1
                continue
            }
            if scalars[index + 1] == "%" {
                result.append("%")
                index += 2
                continue
            }
            // %N$s / %N$d: the Nth value.
            var cursor = index + 1
            var number = 0
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]), number < 1000 {
                number = number * 10 + Int(scalars[cursor].value - 48)
                cursor += 1
            }
            let positional = number > 0 && cursor < scalars.count && scalars[cursor] == "$"
            if positional { cursor += 1 } else { cursor = index + 1 }
            guard cursor < scalars.count, scalars[cursor] == "s" || scalars[cursor] == "d" else {
                result.append(scalars[index])
                index += 1
                continue
            }
            let which = positional ? number - 1 : nextValue
            if !positional { nextValue += 1 }
            if which >= 0, which < values.count {
                result.append(contentsOf: values[which].unicodeScalars)
            } else {
                result.append(contentsOf: scalars[index...cursor])
            }
            index = cursor + 1
        }
        return String(result)
    }
}
