/// Why Sign in saved nothing, in the person's words, and where it is said.
package struct SignInProblem: Error, Equatable, Sendable {
    package let field: SignInField
    package let text: String

    package init(_ field: SignInField, _ text: String) {
        self.field = field
        self.text = text
    }
}
