"""The hand form's radio buttons, written by a template tag instead of a template loop."""

from __future__ import annotations

from django import forms

from scoring.templatetags.hand_form import choice_buttons


class Pick(forms.Form):
    side = forms.ChoiceField(choices=[("A", "Ann <b>&</b> Co"), ("B", 'Bo "B"')])


def test_labels_are_escaped_and_the_current_value_is_checked():
    html = choice_buttons(Pick({"side": "B"})["side"], required=True)
    assert html == (
        '<label class="choice"><input type="radio" name="side" value="A" id="id_side_0"'
        " required><span>Ann &lt;b&gt;&amp;&lt;/b&gt; Co</span></label>"
        '<label class="choice"><input type="radio" name="side" value="B" id="id_side_1"'
        " required checked><span>Bo &quot;B&quot;</span></label>"
    )


def test_nothing_checked_on_a_fresh_form():
    html = choice_buttons(Pick()["side"])
    assert "checked" not in html and "required" not in html
    assert html.count('type="radio"') == 2
