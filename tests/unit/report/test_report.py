"""The rendered report: page 1 answers from the processed data, navigation, numbering, metadata,
charts as vector text, HTML offline, byte-identical rebuilds."""

import pytest

from vdi_report.publish import render


def test_a_reference_to_a_missing_table_is_an_error():
    from bs4 import BeautifulSoup

    soup = BeautifulSoup('<main><a class="vdi-ref" data-key="nowhere" href="#nowhere">x</a></main>', "html.parser")
    with pytest.raises(ValueError, match="nowhere"):
        render.number_captions(soup)
